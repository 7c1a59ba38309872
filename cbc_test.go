package lazycg_test

// The MIP tests (pairwise_mip_test.go) solve with CBC.
import _ "github.com/lazycg/lazycg/mip/cbc"

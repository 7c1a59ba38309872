package experiment

// The built-in MIP experiments solve with CBC.
import _ "github.com/lazycg/lazycg/mip/cbc"

package main

// The MIP polytopes (mps:, tsp:, cut:, spanningtree-ext:, qubo:) solve with
// CBC; without this import they answer with mip.ErrNoBackend.
import _ "github.com/lazycg/lazycg/mip/cbc"

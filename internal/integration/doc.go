// Package integration holds tests that run the lazycg methods on the real
// oracles of other packages: exact combinatorial polytopes of package lmo
// (pairwise_test.go) and MIP polytopes through the CBC backend
// (pairwise_mip_test.go, built only with cgo). They live outside the root
// package so that its tests need neither another package's oracles nor
// cgo.
package integration

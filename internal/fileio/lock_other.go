//go:build !unix

package fileio

import "sync"

var lockMu sync.Mutex

// Lock serializes callers within this process only (no advisory file
// locks on this platform); it returns the release.
func Lock(path string) (unlock func(), err error) {
	lockMu.Lock()
	return lockMu.Unlock, nil
}

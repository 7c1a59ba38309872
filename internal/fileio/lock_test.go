package fileio

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestLock checks mutual exclusion between goroutines, each with its own
// descriptor of the lock file (as separate processes have).
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	var wg sync.WaitGroup
	inside, most := 0, 0
	var mu sync.Mutex
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				unlock, err := Lock(path)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(50 * time.Microsecond)
				mu.Lock()
				inside--
				mu.Unlock()
				unlock()
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d holders at once", most)
	}
	if _, err := Lock(filepath.Join(t.TempDir(), "no", "such", "dir", "x.lock")); err == nil {
		t.Error("lock in a missing directory: no error")
	}
}

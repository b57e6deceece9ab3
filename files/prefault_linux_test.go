package files

import (
	"errors"
	"os"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPrefaultMapsThePages: filling a prefaulted buffer takes no page
// faults, where each of its pages could have taken one.
func TestPrefaultMapsThePages(t *testing.T) {
	if err := unix.Madvise(make([]byte, prefaultMin), unix.MADV_POPULATE_WRITE); errors.Is(err, unix.EINVAL) {
		t.Skip("this kernel cannot prefault (Linux 5.14 can)")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	faults := func() int64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
			t.Fatal(err)
		}
		return ru.Minflt
	}
	const size = 16 << 20
	page := os.Getpagesize()
	b := make([]byte, size)
	prefault(b)
	before := faults()
	for i := 0; i < size; i += page {
		b[i] = 1
	}
	if n := faults() - before; n > int64(size/page/16) {
		t.Errorf("%d page faults filling %d prefaulted pages", n, size/page)
	}
}

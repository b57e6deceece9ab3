package pages

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// canPopulate skips a test on a kernel that cannot map pages ahead.
func canPopulate(t *testing.T) {
	if err := unix.Madvise(make([]byte, Min), unix.MADV_POPULATE_WRITE); errors.Is(err, unix.EINVAL) {
		t.Skip("this kernel cannot map pages ahead (Linux 5.14 can)")
	}
}

// threadFaults counts the page faults of the calling thread, which it
// locks to its goroutine until the test ends.
func threadFaults(t *testing.T) func() int64 {
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	return func() int64 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
			t.Fatal(err)
		}
		return ru.Minflt
	}
}

// TestBufferMapsThePages: filling a buffer mapped ahead takes almost no
// page faults, where each of its pages could have taken one.
func TestBufferMapsThePages(t *testing.T) {
	canPopulate(t)
	faults := threadFaults(t)
	const size = 16 << 20
	page := os.Getpagesize()
	b := make([]byte, size)
	Buffer(b)
	before := faults()
	for i := 0; i < size; i += page {
		b[i] = 1
	}
	if n := faults() - before; n > int64(size/page/16) {
		t.Errorf("%d page faults filling %d pages mapped ahead", n, size/page)
	}
}

// TestBufferMapsAnUnalignedBuffer: a buffer that does not start a page
// still has its whole pages mapped.
func TestBufferMapsAnUnalignedBuffer(t *testing.T) {
	canPopulate(t)
	faults := threadFaults(t)
	const size = 16 << 20
	page := os.Getpagesize()
	b := make([]byte, size+page)[100:]
	Buffer(b)
	before := faults()
	for i := page; i < size; i += page {
		b[i] = 1
	}
	if n := faults() - before; n > int64(size/page/16) {
		t.Errorf("%d page faults filling %d pages mapped ahead", n, size/page)
	}
}

// TestHeapMapsThePages: small objects allocated after Heap take their
// memory from the pages it mapped. Each way is measured in a fresh
// process, whose heap no other test has grown: without Heap, every page
// of new heap takes a fault.
func TestHeapMapsThePages(t *testing.T) {
	canPopulate(t)
	if way := os.Getenv("PAGES_TEST_ALLOCATE"); way != "" {
		allocate(way == "after Heap")
		return
	}
	faults := func(way string) int {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHeapMapsThePages$")
		// No collection before Heap, as in a command that has just started.
		cmd.Env = append(os.Environ(), "PAGES_TEST_ALLOCATE="+way, "GOGC=off")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", way, err, out)
		}
		var n int
		if _, err := fmt.Sscanf(string(out), "faults %d", &n); err != nil {
			t.Fatalf("%s: %v in %q", way, err, out)
		}
		return n
	}
	without, with := faults("alone"), faults("after Heap")
	t.Logf("page faults allocating 16 MiB of objects: %d alone, %d after Heap", without, with)
	if with*4 > without {
		t.Errorf("%d page faults after Heap, %d without: Heap mapped too little", with, without)
	}
}

// allocate allocates 16 MiB of small objects, after mapping 32 MiB of
// heap when heap is set, and prints the page faults that took.
func allocate(heap bool) {
	const size = 16 << 20
	kept := make([]*[64]byte, 0, size/64)
	if heap {
		Heap(2 * size)
	}
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for range size / 64 {
		kept = append(kept, new([64]byte))
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	fmt.Printf("faults %d\n", after.Minflt-before.Minflt)
	runtime.KeepAlive(kept)
}

// TestHeapAfterACollection: once the process has collected, Heap leaves
// the heap to the pages the collector freed and collects nothing itself.
func TestHeapAfterACollection(t *testing.T) {
	runtime.GC()
	before := collections()
	Heap(64 << 20)
	if after := collections(); after != before {
		t.Errorf("Heap after a collection ran %d collections", after-before)
	}
}

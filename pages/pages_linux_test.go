package pages

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// canPopulate skips a test on a kernel that cannot map pages ahead.
func canPopulate(t *testing.T) {
	if err := unix.Madvise(make([]byte, 1<<20), unix.MADV_POPULATE_WRITE); errors.Is(err, unix.EINVAL) {
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

// childMode is the mode runChild started this test process in, if any.
func childMode() string { return os.Getenv("PAGES_TEST_CHILD") }

// runChild runs test again in a fresh process, whose heap no other test
// has grown and which has not collected, with childMode set to mode, the
// collector at its defaults and env over them; it returns what the
// process printed.
func runChild(t *testing.T, test, mode string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(append(os.Environ(), "PAGES_TEST_CHILD="+mode, "GOGC=100", "GOMEMLIMIT=off"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", mode, err, out)
	}
	return string(out)
}

// TestHeapMapsThePages: small objects allocated after Heap take their
// memory from the pages it mapped, and no collection interrupts them.
// Each way is measured in a fresh process, whose heap no other test has
// grown: without Heap, every page of new heap takes a fault, and the
// collector runs each time the heap doubles.
func TestHeapMapsThePages(t *testing.T) {
	canPopulate(t)
	if way := childMode(); way != "" {
		allocate(way == "after Heap")
		return
	}
	measure := func(way string) (faults, collections, byHeap int) {
		out := runChild(t, "TestHeapMapsThePages", way)
		if _, err := fmt.Sscanf(out, "heap %d faults %d collections %d", &byHeap, &faults, &collections); err != nil {
			t.Fatalf("%s: %v in %q", way, err, out)
		}
		return faults, collections, byHeap
	}
	faultsAlone, gcAlone, _ := measure("alone")
	faultsAfter, gcAfter, byHeap := measure("after Heap")
	if byHeap != 1 {
		t.Errorf("Heap ran %d collections; it should run one", byHeap)
	}
	t.Logf("allocating 16 MiB of objects: %d page faults and %d collections alone, %d and %d after Heap", faultsAlone, gcAlone, faultsAfter, gcAfter)
	if faultsAfter*4 > faultsAlone {
		t.Errorf("%d page faults after Heap, %d without: Heap mapped too little", faultsAfter, faultsAlone)
	}
	if gcAlone == 0 || gcAfter != 0 {
		t.Errorf("%d collections after Heap, %d without: Heap should leave room for what it mapped", gcAfter, gcAlone)
	}
}

// allocate allocates 16 MiB of small objects, after readying 32 MiB of
// heap when heap is set, and prints the collections Heap ran, then the
// page faults and collections the allocations took.
func allocate(heap bool) {
	const size = 16 << 20
	kept := make([]*[64]byte, 0, size/64)
	if collections() > 0 {
		fmt.Println("the test process collected before it began")
		os.Exit(1)
	}
	if heap {
		Heap(2 * size)
	}
	var before, after syscall.Rusage
	gcBefore := collections()
	fmt.Printf("heap %d ", gcBefore)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for range size / 64 {
		kept = append(kept, new([64]byte))
	}
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	fmt.Printf("faults %d collections %d\n", after.Minflt-before.Minflt, collections()-gcBefore)
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

// TestHeapUnderAMemoryLimit: a process given a memory limit keeps to it;
// Heap neither maps nor collects there.
func TestHeapUnderAMemoryLimit(t *testing.T) {
	canPopulate(t)
	if childMode() != "" {
		before := collections()
		Heap(64 << 20)
		fmt.Printf("collections %d\n", collections()-before)
		return
	}
	out := runChild(t, "TestHeapUnderAMemoryLimit", "limited", "GOMEMLIMIT=512MiB")
	var n int
	if _, err := fmt.Sscanf(out, "collections %d", &n); err != nil || n != 0 {
		t.Errorf("Heap under GOMEMLIMIT ran collections: %q", out)
	}
}

// TestHeapSideBySide: calls at the same moment, as layers loading side by
// side make, collect once and leave the collector as they found it.
func TestHeapSideBySide(t *testing.T) {
	canPopulate(t)
	if childMode() != "" {
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() { Heap(8 << 20) })
		}
		wg.Wait()
		fmt.Printf("collections %d percent %d\n", collections(), debug.SetGCPercent(100))
		return
	}
	out := runChild(t, "TestHeapSideBySide", "side by side")
	var n, percent int
	if _, err := fmt.Sscanf(out, "collections %d percent %d", &n, &percent); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if n != 1 || percent != 100 {
		t.Errorf("four calls side by side: %d collections, GOGC left at %d; want 1 and 100", n, percent)
	}
}

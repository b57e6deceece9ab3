package pages

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HeapMin is the least heap worth mapping ahead: it costs a garbage
// collection, about a millisecond, which saves as much only from about
// 4 MiB on.
const HeapMin = 4 << 20

// Heap readies the heap for n bytes of allocations about to be made that
// stay live, such as the decoded form of a large file, in a process that
// has not yet collected garbage: there, every page the heap takes is new
// and faults, and each collection on the way marks data that is all live.
//
// It allocates n bytes and maps them, then collects them again: those
// pages, now mapped, join the runtime's free pages, which the next
// allocations take first. That collection also sees n bytes that are
// allocated but never touched, so it sets the next one to wait until
// about n more bytes are allocated (and keeps the pages from being handed
// back to the system meanwhile); those n bytes are freed then, having
// cost address space only.
//
// A process that has collected, such as a server, reuses the pages its
// collections freed instead, and Heap does nothing there; nor does it
// collect where the kernel cannot map pages ahead. Under a memory limit
// (GOMEMLIMIT) it does nothing either: the limit is the user's to keep.
func Heap(n int) {
	if n < HeapMin {
		return
	}
	// Layers load side by side: one call at a time, so that a second
	// sees the first one's collection, and the collector's setting,
	// switched off below, is put back as it was.
	heapMu.Lock()
	defer heapMu.Unlock()
	if collections() > 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return // already collected, or a memory limit (GOMEMLIMIT) to keep to
	}
	// Neither allocation may start a collection of its own.
	percent := debug.SetGCPercent(-1)
	mapped := populate(make([]byte, n))
	headroom := make([]byte, n)
	debug.SetGCPercent(percent)
	if !mapped {
		return // a kernel that cannot map ahead: both are garbage, and cost address space only
	}
	runtime.GC()
	runtime.KeepAlive(headroom)
}

var heapMu sync.Mutex

// collections is how many garbage collections the process has run.
func collections() int64 {
	var s debug.GCStats
	debug.ReadGCStats(&s)
	return s.NumGC
}

// populate maps b's whole pages: as huge pages where it can, then all of
// them in one call. It reports whether the kernel mapped them.
func populate(b []byte) bool {
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	skip := (page - start%page) % page
	if uintptr(len(b)) <= skip {
		return false
	}
	b = b[skip:]
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // only a preference
	return unix.Madvise(b, unix.MADV_POPULATE_WRITE) == nil
}

package pages

import (
	"os"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Min is the least buffer worth the system calls that map it ahead.
const Min = 256 << 10

// Buffer maps the pages of a large, fresh buffer that a read is about to
// fill, up to its capacity.
func Buffer(b []byte) {
	if cap(b) >= Min {
		populate(b[:cap(b)])
	}
}

// HeapMin is the least heap worth mapping ahead: it costs a garbage
// collection, about a millisecond, which saves as much only from about
// 4 MiB on.
const HeapMin = 4 << 20

// Heap maps n bytes of heap for the allocations about to be made, such
// as the decoded form of a large file, in a process that has not yet
// collected garbage: there, every page the heap takes is new and faults.
// It allocates n bytes, maps them, and collects them again: those pages,
// now mapped, join the runtime's free pages, which the next allocations
// take first. A process that has collected, such as a server, reuses the
// pages its collections freed instead, and Heap does nothing there.
func Heap(n int) {
	if n < HeapMin || collections() > 0 {
		return
	}
	populate(make([]byte, n))
	runtime.GC()
}

// collections is how many garbage collections the process has run.
func collections() int64 {
	var s debug.GCStats
	debug.ReadGCStats(&s)
	return s.NumGC
}

// populate maps b's whole pages: as huge pages where it can, then all of
// them in one call.
func populate(b []byte) {
	page := uintptr(os.Getpagesize())
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	skip := (page - start%page) % page
	if uintptr(len(b)) <= skip {
		return
	}
	b = b[skip:]
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
}

package files

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// prefaultMin is the least buffer worth a system call to prefault.
const prefaultMin = 256 << 10

// prefault maps the pages of a large, fresh buffer a read is about to fill
// in one system call. Otherwise the kernel takes a page fault for each
// 4 KiB it copies, which on a virtual machine costs as much as the rest
// of the read. It is only a hint: before Linux 5.14, or for a buffer that
// does not start a page (Go starts large ones on a page), the read
// faults as usual.
func prefault(b []byte) {
	if cap(b) < prefaultMin || uintptr(unsafe.Pointer(unsafe.SliceData(b[:1])))%uintptr(os.Getpagesize()) != 0 {
		return
	}
	_ = unix.Madvise(b[:cap(b)], unix.MADV_POPULATE_WRITE)
}

//go:build !linux

package pages

// Min is the least buffer worth mapping ahead, where that can be done.
const Min = 256 << 10

// HeapMin is the least heap worth mapping ahead, where that can be done.
const HeapMin = 4 << 20

// Heap does nothing where pages cannot be mapped ahead.
func Heap(int) {}

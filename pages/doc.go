// Package pages maps memory ahead of large reads and decodes.
//
// A process takes a page fault the first time it touches each 4 KiB page
// of new memory. On the virtual machines bn often runs on, each fault
// costs several microseconds, so a command that reads and decodes a
// file of megabytes spends more time faulting than working. Mapping the
// same pages in one system call, in 2 MiB huge pages where the kernel
// has them, costs a small fraction of that. Everything here is a hint:
// where the kernel cannot do it (before Linux 5.14, or off Linux), the
// memory faults in as usual.
package pages

//go:build linux && cgo

package main

// A build with cgo (the default wherever a C compiler is found: go
// install, pre-commit's golang hooks, the Action's build) links glibc's
// malloc, which gives each thread that allocates its own arena and
// reserves 64 MiB of address space for each, up to eight per core. The
// runtime's threads do allocate (cgo starts them through pthread), so on a
// 2-core runner those reservations reach a gigabyte: under ulimit -v 2 GB
// the process died with 230 MB of heap in use. One arena is enough for
// the little C allocation there is; musl and other libcs are left alone.

/*
#include <stdlib.h> // defines __GLIBC__ where the libc is glibc
#ifdef __GLIBC__
#include <malloc.h>
__attribute__((constructor)) static void mirrorlint_one_malloc_arena(void) {
	mallopt(M_ARENA_MAX, 1);
}
#endif
*/
import "C"

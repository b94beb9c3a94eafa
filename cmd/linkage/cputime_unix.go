//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system, all threads) the process has used so
// far, or 0 where the platform does not report it.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

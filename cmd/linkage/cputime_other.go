//go:build !unix

package main

import "time"

// processCPU returns 0: this platform's CPU time is not read (see cputime_unix.go).
func processCPU() time.Duration { return 0 }

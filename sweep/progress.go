package sweep

import (
	"fmt"
	"strings"
	"time"
)

// Line formats p as a progress bar with the rate and the time left, estimated from the
// runs done in this session (runs resumed from a part file took no time now):
//
//	[########............] 37/100 runs, 2 failed, 12.3 runs/s, ETA 5s
func (p Progress) Line(width int) string {
	frac := 1.0
	if p.Total > 0 {
		frac = float64(p.Done) / float64(p.Total)
	}
	fill := int(frac * float64(width))
	bar := "[" + strings.Repeat("#", fill) + strings.Repeat(".", width-fill) + "]"
	line := fmt.Sprintf("%s %d/%d runs", bar, p.Done, p.Total)
	if p.Failed > 0 {
		line += fmt.Sprintf(", %d failed", p.Failed)
	}
	ran := p.Done - p.Resumed
	if ran > 0 && p.Elapsed > 0 {
		rate := float64(ran) / p.Elapsed.Seconds()
		eta := time.Duration(float64(p.Total-p.Done) / rate * float64(time.Second))
		line += fmt.Sprintf(", %.3g runs/s, ETA %s", rate, eta.Round(time.Second))
	}
	return line
}

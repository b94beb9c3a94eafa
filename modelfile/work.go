package modelfile

import (
	"linkage/integrate"
	"linkage/planar"
)

// workMeter returns the meter of the non-conservative and driving work of b's mechanism
// (planar or spatial) along the steps of m from the consistent start.
func (b *Built) workMeter(m integrate.Method) *planar.WorkMeter {
	var src planar.PowerSource = b.System
	if b.Spatial != nil {
		src = b.Spatial.System
	}
	_, nc := b.Size()
	return planar.NewWorkMeter(src, nc, b.FullLambda, m, b.Start.T)
}

package modelfile

import (
	"linkage/assembly"
	"linkage/integrate"
)

// workMeter returns the meter of the non-conservative and driving work of b's mechanism
// (planar or spatial) along the steps of m from the consistent start.
func (b *Built) workMeter(m integrate.Method) *assembly.WorkMeter {
	_, nc := b.Size()
	return assembly.NewWorkMeter(b.powerSource(), nc, b.FullLambda, m, b.Start.T)
}

// powerSource returns the mechanism whose power the work meter integrates.
func (b *Built) powerSource() assembly.PowerSource {
	var src assembly.PowerSource = b.System
	switch {
	case b.Spatial != nil:
		src = b.Spatial.System
	case b.Natural != nil:
		src = b.Natural.System
	case b.Joint != nil:
		src = b.Joint.System
	case b.Joint3 != nil:
		src = b.Joint3.System
	}
	return src
}

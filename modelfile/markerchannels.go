package modelfile

import (
	"math"

	"linkage/spatial"
)

// Marker channels: the global position and velocity of a marker's point, the quantities
// benchmark problems compare (IFToMM A02's point B0, A04's P3). For a marker with point s
// on a body at r with rotation A (planar A(θ), spatial A(p) of seed 002 Remark 7b) they
// are r + A s and ṙ + ω × A s (spatial: ṙ + A (ω' × s), ω' in body axes); a ground
// marker's position is its point and its velocity zero.

// markerSuffixes are the channels of a marker in dim dimensions.
func markerSuffixes(dim int) []string {
	if dim == 3 {
		return []string{"x", "y", "z", "vx", "vy", "vz"}
	}
	return []string{"x", "y", "vx", "vy"}
}

// appendMarkerChannels appends the channels of the markers named, in dim dimensions, to out.
func appendMarkerChannels(out, names []string, dim int) []string {
	for _, n := range names {
		for _, s := range markerSuffixes(dim) {
			out = append(out, n+"."+s)
		}
	}
	return out
}

func markerNames3(m *SpatialModel) []string {
	names := make([]string, len(m.Markers))
	for i, mk := range m.Markers {
		names[i] = mk.Name
	}
	return names
}

// planarFrame reads a planar body's pose (r, θ) and velocity (ṙ, ω) from a sample.
type planarFrame func(c *sample) (r [2]float64, theta float64, v [2]float64, omega float64)

// planarMarkerChannel returns the reader of channel elem.suffix when elem is a marker of a
// planar model whose bodies' frames frame reads (nil for ground); ok is false otherwise.
func planarMarkerChannel(m *Model, frame func(body string) planarFrame, elem, suffix string) (channelFunc, bool) {
	k := suffixIndex(markerSuffixes(2), suffix)
	if k < 0 {
		return nil, false
	}
	for _, mk := range m.Markers {
		if mk.Name != elem {
			continue
		}
		s, f := mk.Point, frame(mk.Body)
		if f == nil {
			return func(*sample) float64 { return planarMarkerValue(s, k, [2]float64{}, 0, [2]float64{}, 0) }, true
		}
		return func(c *sample) float64 {
			r, th, v, w := f(c)
			return planarMarkerValue(s, k, r, th, v, w)
		}, true
	}
	return nil, false
}

// planarMarkerValue is component k of (x, y, vx, vy) of the point s of a body at (r, θ)
// moving with (v, ω): r + A(θ) s and v + ω k × A(θ) s.
func planarMarkerValue(s Vec, k int, r [2]float64, th float64, v [2]float64, w float64) float64 {
	sin, cos := math.Sincos(th)
	as := [2]float64{cos*s[0] - sin*s[1], sin*s[0] + cos*s[1]}
	switch k {
	case 0, 1:
		return r[k] + as[k]
	case 2:
		return v[0] - w*as[1]
	}
	return v[1] + w*as[0]
}

// spatialMarkerChannel returns the reader of channel elem.suffix when elem is a marker of a
// 3D model, whose body columns col gives (the column of BODY.x); ok is false otherwise.
func spatialMarkerChannel(m *SpatialModel, col map[string]int, elem, suffix string) (channelFunc, bool) {
	k := suffixIndex(markerSuffixes(3), suffix)
	if k < 0 {
		return nil, false
	}
	for _, mk := range m.Markers {
		if mk.Name != elem {
			continue
		}
		s := spatial.Vec3(mk.Point)
		if mk.Body == groundName {
			return func(*sample) float64 { return spatialMarkerValue(s, k, -1, nil, nil) }, true
		}
		c := col[mk.Body+".x"]
		return func(cs *sample) float64 { return spatialMarkerValue(s, k, c, cs.s.Q, cs.s.V) }, true
	}
	return nil, false
}

// spatialMarkerValue is component k of (x, y, z, vx, vy, vz) of the point s of the body
// whose coordinates start at column c (−1: ground): r + A(p) s and ṙ + A(p)(ω' × s), with
// the body-axes angular velocity ω' = 2 G(p) ṗ.
func spatialMarkerValue(s spatial.Vec3, k, c int, q, v []float64) float64 {
	if c < 0 {
		if k < 3 {
			return s[k]
		}
		return 0
	}
	p := spatial.Quat{q[c+3], q[c+4], q[c+5], q[c+6]}
	if k < 3 {
		return q[c+k] + p.Rotate(s)[k]
	}
	var w spatial.Vec3
	for i, name := range []string{"wx", "wy", "wz"} {
		w[i] = body3Value(c, name, q, v, nil)
	}
	return v[c+k-3] + p.Rotate(w.Cross(s))[k-3]
}

func suffixIndex(suffixes []string, s string) int {
	for i, x := range suffixes {
		if x == s {
			return i
		}
	}
	return -1
}

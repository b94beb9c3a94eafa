package joint

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"linkage/law"
)

// elementChain is a chain of n rods on revolute joints (axes alternating z and y), with
// elements: a TSDA from the ground to every rod's tip and a point force on it.
func elementChain(n int, elements bool) *Model {
	m := &Model{Gravity: [3]float64{0, 0, -9.81}}
	rod := Body{Name: "rod", Mass: 1, COM: [3]float64{0.25}, Inertia: [3][3]float64{{1e-4, 0, 0}, {0, 0.02, 0}, {0, 0, 0.02}}}
	f := Ground
	for i := range n {
		axis, origin := [3]float64{0, 0, 1}, [3]float64{0.5}
		if i%2 == 1 {
			axis = [3]float64{0, 1, 0}
		}
		if i == 0 {
			origin = [3]float64{}
		}
		f = m.Revolute(fmt.Sprint("j", i), f, origin, axis, rod)
		if elements {
			tip := Marker{Frame: f, Point: [3]float64{0.5}, X: [3]float64{1}, Y: [3]float64{0, 1}, Z: [3]float64{0, 0, 1}}
			m.TSDA(fmt.Sprint("s", i), Marker{Frame: Ground, Point: [3]float64{0.5 * float64(i), 0.3, 0.2}}, tip, SpringDamper{K: 100, C: 1, Free: 0.2})
			m.PointForce(fmt.Sprint("p", i), tip, [3]law.Func{law.Const{Value: 1}, nil, law.Const{Value: 2}}, true)
		}
	}
	return m
}

// BenchmarkForceElements measures Force and ForceDerivativeQ on elementChain with and
// without its 2N force elements (N rods): the elements' Force costs O(N·depth) = O(N²) on
// a chain, their ∂f/∂q O(N²·depth)... below the Newton-Euler derivative's O(N·depth) per
// column only in the constant.
//
//	go test -run X -bench ForceElements -benchmem ./joint/
func BenchmarkForceElements(b *testing.B) {
	for _, n := range []int{10, 50} {
		for _, elements := range []bool{false, true} {
			sys, err := elementChain(n, elements).System()
			if err != nil {
				b.Fatal(err)
			}
			q, v := make([]float64, n), make([]float64, n)
			for i := range q {
				q[i], v[i] = 0.1*float64(i%3), 0.2
			}
			f, J := make([]float64, n), mat.NewDense(n, n, nil)
			b.Run(fmt.Sprintf("N=%d/elements=%v/Force", n, elements), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					q[0] += 1e-12
					sys.Force(f, 0, q, v)
				}
			})
			b.Run(fmt.Sprintf("N=%d/elements=%v/ForceDerivativeQ", n, elements), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					q[0] += 1e-12
					sys.ForceDerivativeQ(J, 0, q, v)
				}
			})
		}
	}
}

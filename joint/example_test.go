package joint_test

import (
	"fmt"

	"linkage/dae"
	"linkage/integrate"
	"linkage/joint"
)

// A double pendulum of two 1 m, 1 kg bars in joint coordinates, released horizontally,
// integrated by dopri5: the accelerations come from the articulated-body recursion.
func ExampleModel() {
	m := &joint.Model{Gravity: [3]float64{0, -9.81, 0}}
	bar := func(name string) joint.Body {
		return joint.Body{Name: name, Mass: 1, COM: [3]float64{0.5, 0, 0},
			Inertia: [3][3]float64{{1.0 / 12, 0, 0}, {0, 1.0 / 12, 0}, {0, 0, 1.0 / 12}}}
	}
	b1 := m.Revolute("shoulder", joint.Ground, [3]float64{}, [3]float64{0, 0, 1}, bar("bar1"))
	b2 := m.Revolute("elbow", b1, [3]float64{1, 0, 0}, [3]float64{0, 0, 1}, bar("bar2"))
	sys, err := m.System()
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := dae.Initialize(sys, 0, []float64{0, 0}, []float64{0, 0}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	start := integrate.State{Q: c.Q, V: c.V, A: c.A, Lambda: c.Lambda}
	sol, err := integrate.Solve(&integrate.DOPRI5{}, "dopri5", sys, start, 1,
		integrate.SolveOptions{Control: integrate.StepControl{RTol: 1e-8, ATol: 1e-8}, Output: []float64{1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	tip := sys.Position(sol.Final.Q, b2, [3]float64{1, 0, 0})
	fmt.Printf("tip at t = 1: (%.4f, %.4f)\n", tip[0], tip[1])
	// Output:
	// tip at t = 1: (-1.6621, -1.0415)
}

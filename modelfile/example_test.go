package modelfile_test

import (
	"fmt"

	"linkage/modelfile"
)

// Load a model file, build it (assembly and a consistent start), run it with some of its
// settings overridden, and read the recorded channels: the double pendulum of seed 001,
// one second of its ten.
func Example() {
	doc, err := modelfile.Load("../examples/double-pendulum.yaml")
	if err != nil {
		fmt.Println(err) // names the file, line and what was expected
		return
	}
	b, err := modelfile.Build(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := modelfile.Run(b, modelfile.RunOptions{Method: "radau5", Tol: 1e-8, TEnd: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	t, th2 := res.Channel("t"), res.Channel("bar2.theta")
	last := len(t) - 1
	fmt.Printf("%d samples; at t = %g s bar2 is at %.4f rad (%s)\n", res.Samples, t[last], th2[last], doc.ChannelUnit("bar2.theta"))
	fmt.Printf("energy drift below 1e-6 of the energy exchanged: %v\n", res.EnergyDrift < 1e-6*res.EnergyScale)
	// Output:
	// 51 samples; at t = 1 s bar2 is at -2.3852 rad (rad)
	// energy drift below 1e-6 of the energy exchanged: true
}

package problems_test

import (
	"fmt"

	"linkage/problems"
)

func ExampleGet() {
	p, err := problems.Get("andrews")
	if err != nil {
		panic(err)
	}
	nq, nc := p.System.Size()
	fmt.Printf("%s: nq = %d, nc = %d, t in [%g, %g]\n", p.Name, nq, nc, p.T0, p.TEnd)
	fmt.Printf("beta(0) = %.6f, beta(%g) = %.6f\n", p.Start.Q[0], p.Ref.T, p.Ref.Q[0])
	fmt.Printf("scd of the start against the reference: %.2f\n", p.Ref.SCD(p.Start.Q))

	_, err = problems.Get("double-pendulum")
	fmt.Println(err)
	// Output:
	// andrews: nq = 7, nc = 6, t in [0, 0.03]
	// beta(0) = -0.061714, beta(0.03) = 15.810771
	// scd of the start against the reference: -1.01
	// problems: unknown problem "double-pendulum"; valid names: pendulum, chain, andrews, crank, pipendulum, heavytop, heavytop-fast, stiffchain, chainN (2 ≤ N ≤ 50), chain-bars:N (1 ≤ N ≤ 10000), chain3d:N (1 ≤ N ≤ 10000)
}

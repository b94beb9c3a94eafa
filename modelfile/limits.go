package modelfile

// Limits on what a model file may ask for. The structure limits are checked by
// checkStructure on the raw bytes, before the YAML parser sees them, because the parser's
// memory grows faster than the input on some shapes (measured with goccy/go-yaml v1.19.2 on
// this repository's test machine: 100 000 nested "[" in a 200 KB file took 6.6 GB, 50 000
// nested JSON objects 5.2 GB, 25 000 keys of one block mapping in 320 KB took 2.5 GB).
const (
	// MaxFileBytes bounds the size of a model file: 2 MiB holds tables of about 100 000
	// points, 250 times the largest example. It is what bounds the parser's memory: about
	// 250 bytes per byte of ordinary YAML or JSON, at most about 650 on inputs made only of
	// brackets or of 1000-key mappings, so at most some 1.3 GB for a hostile file.
	MaxFileBytes = 2 << 20
	// MaxNesting bounds the nesting of lists and mappings, block and flow styles counted
	// together. No valid model needs more than 7 levels (forces[k].damper.piecewise.pieces
	// [i][j]), so the limit only changes the message for invalid files; the parser's memory
	// grows with the square of the depth (4 000 levels: 27 MB, 100 000: 6.6 GB).
	MaxNesting = 64
	// MaxMappingKeys bounds the keys of one block-style mapping (one key per line); the
	// parser's memory grows with the square of their number (2 500: 29 MB; 25 000: 2.5 GB).
	// The format's mappings have at most 20 keys, except initial.bodies (one per body;
	// a large model writes it with a repeat block, or in flow style).
	// Flow-style mappings ({a: 1, b: 2}) and lists cost memory in proportion and have no
	// limit of their own.
	MaxMappingKeys = 1000
)

// Range of simulation.tol, shared with the command line's --tol.
const (
	// MinTol is the smallest relative tolerance accepted: about 100 unit roundoffs
	// (2⁻⁵³ ≈ 1.1e-16); below it the error test asks for digits double precision cannot
	// resolve and the step size collapses.
	MinTol = 1e-14
	// MaxTol is the largest relative tolerance accepted: above 0.1 the error estimate
	// controls nothing (each step may be wrong by more than 10 %).
	MaxTol = 0.1
)

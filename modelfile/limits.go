package modelfile

// MinTol and MaxTol bound simulation.tol and --tol. Below 1e-14 a tolerance asks for
// relative errors that double precision cannot resolve (unit roundoff 1.1e-16; the error
// estimates themselves are differences rounded at about 1e-14 relative), so the step size
// collapses to HMin; above 0.1 the error control accepts steps with 10 % errors and the
// result means nothing.
const MinTol, MaxTol = 1e-14, 0.1

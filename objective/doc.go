// Package objective provides the smooth convex objectives of the paper's
// experiments (section 7 of Braun, Pokutta and Zink, "Lazifying Conditional
// Gradient Algorithms"), their exact line searches, seeded instance
// generators and the loss streams of the online experiments.
//
// Objectives:
//
//   - LeastSquares: f(x) = ‖Ax − b‖² with a sparse (CSR, CSC) or dense
//     matrix A, used for video colocalization and structured regression; it
//     keeps A·x between calls, so that an iteration with exact line search
//     costs two matrix–vector products, one of them over the columns of a
//     sparse vertex only;
//   - Distance: f(x) = Σ w_i (x_i − b_i)², the squared (weighted) Euclidean
//     distance to a point;
//   - MatrixCompletion: f(X) = Σ_{(i,j)∈Ω} (X_ij − A_ij)² over m×n matrices;
//   - Linear: f(x) = c·x + b, the linear online losses;
//   - Sum: a sum of objectives (the cumulative losses of online methods);
//   - Func: an adapter for arbitrary functions given as closures.
//
// Every quadratic objective implements lazycg.Objective, lazycg.FuncGrader
// and lazycg.LineMinimizer (exact line search) and evaluates without
// allocating: scratch buffers are allocated at construction. As a
// consequence an objective value is not safe for concurrent use.
//
// User data: ReadMatrixMarket reads Matrix Market files (sparse CSR for the
// coordinate format, Dense for the array format), ReadCSV dense matrices
// from comma- or white-space separated text, and ReadMatrix, ReadVector and
// LeastSquaresFromFiles pick the format from the content. The *File
// variants decompress gzip transparently; all readers reject NaN and Inf and
// name the offending line in their errors.
//
// Generators (RandomLeastSquares, RandomDistance, RandomMatrixCompletion,
// LinearLosses, QuadraticLosses) draw from math/rand/v2's PCG seeded with
// (seed, seed^SeedMix), so equal seeds give identical instances.
package objective

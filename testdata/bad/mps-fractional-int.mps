NAME          SMALL
ROWS
 N  obj
 L  c1
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         obj       1.0        c1        1.0
    y         obj       2.0        c1        1.0
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       c1        1.0
BOUNDS
 LO bnd       x         0.2
 UP bnd       x         0.7
 UP bnd       y         1.0
ENDATA

NAME          SMALL
ROWS
 N  obj
 L  c1
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         obj       1.0        c1        NaN
    y         obj       2.0        c1        1.0
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       c1        1.0
BOUNDS
 UP bnd       x         1.0
 UP bnd       y         1.0
ENDATA

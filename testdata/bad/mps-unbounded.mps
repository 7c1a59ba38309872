NAME          UNB
ROWS
 N  obj
 G  c1
COLUMNS
    x         obj       -1.0       c1        1.0
RHS
    rhs       c1        0.0
BOUNDS
 PL bnd       x
ENDATA

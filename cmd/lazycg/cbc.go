package main

import _ "github.com/lazycg/lazycg/mip/cbc"

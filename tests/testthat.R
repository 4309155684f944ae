library(testthat)
library(cuRnet)

test_check("cuRnet")

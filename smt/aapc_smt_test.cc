#include "smt/aapc_smt.h"

#include <gtest/gtest.h>

TEST(AapcSmtStub, Builds) { SUCCEED(); }

#include "aapc/bounds.h"

#include <gtest/gtest.h>

TEST(AapcStub, Builds) { SUCCEED(); }

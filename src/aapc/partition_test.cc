#include "aapc/partition.h"

#include <gtest/gtest.h>

TEST(AapcStub, Builds) { SUCCEED(); }

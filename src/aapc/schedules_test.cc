#include "aapc/schedules.h"

#include <gtest/gtest.h>

TEST(AapcStub, Builds) { SUCCEED(); }

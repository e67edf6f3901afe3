// TODO(issue 6): stub, to be written.
#pragma once
#include "aapc/aapc.h"

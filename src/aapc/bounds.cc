#include "aapc/bounds.h"

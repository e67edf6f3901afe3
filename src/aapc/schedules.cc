#include "aapc/schedules.h"

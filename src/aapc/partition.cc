#include "aapc/partition.h"

#include "routing/wormhole_check.h"

#include "routing/wormhole_routing.h"

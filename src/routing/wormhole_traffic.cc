#include "routing/wormhole_traffic.h"

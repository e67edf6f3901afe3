#include "routing/wormhole_graphs.h"

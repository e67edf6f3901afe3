#include "routing/wormhole.h"

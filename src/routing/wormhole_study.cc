#include "routing/wormhole_study.h"

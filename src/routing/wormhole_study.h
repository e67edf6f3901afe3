#pragma once
// placeholder: wormhole_study.h (helper)

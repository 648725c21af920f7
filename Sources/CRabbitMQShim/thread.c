#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <string.h>

#include "CRabbitMQShim.h"

void c_name_current_thread(char const *name) {
    // The kernel keeps 15 bytes and refuses a longer name outright (ERANGE).
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = '\0';
    pthread_setname_np(pthread_self(), kept);
}

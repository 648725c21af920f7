#ifndef C_RABBITMQ_SHIM_LOGIN_H
#define C_RABBITMQ_SHIM_LOGIN_H

#include <amqp.h>

// amqp_login_with_properties is variadic, and Swift cannot call C variadic functions: this fixes its
// SASL arguments to PLAIN with a user name and password.
amqp_rpc_reply_t c_rabbitmq_login_plain(amqp_connection_state_t state, char const *vhost, int channel_max,
                                        int frame_max, int heartbeat, amqp_table_t const *client_properties,
                                        char const *user, char const *password);

#endif

#include "CRabbitMQShim.h"

amqp_rpc_reply_t c_rabbitmq_login_plain(amqp_connection_state_t state, char const *vhost, int channel_max,
                                        int frame_max, int heartbeat, amqp_table_t const *client_properties,
                                        char const *user, char const *password) {
    return amqp_login_with_properties(state, vhost, channel_max, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_PLAIN, user, password);
}

import AMQP
import ResponderIntake

extension ForwardedInput {
    /// `delivery` as it arrived (body, properties, headers, `x-responder-attempts` included), published through the
    /// default exchange to the back of the input queue `queue`: how the worker hands back an input it could not
    /// handle because the state store was unavailable. The original is acknowledged once this is confirmed.
    ///
    /// Why a copy and not a requeue: a quorum queue counts every requeue against its delivery limit on RabbitMQ up to
    /// 4.2 (basic.nack, basic.reject, or the channel closing; 4.3 stops counting basic.nack), so a long outage, or
    /// a few short ones, would dead-letter good inputs as `delivery-limit-exceeded`. A new message starts with a
    /// delivery count of 0, and the retry header is untouched, so the outage costs the input nothing. Holding the
    /// inputs unacknowledged until the store is back would count nothing either, but the broker's consumer timeout
    /// (30 minutes by default) closes the channel on a long outage, requeueing them all with a count, and held inputs
    /// are out of reach of other workers whose store may work.
    ///
    /// The price: the copy joins the back of the queue, so the events of a notification may be handled out of
    /// order, as after any redelivery (updates carry versions for that). A crash between the confirm and the ack
    /// leaves the original and the copy; the inbox makes the second one a duplicate without effect.
    static func handBack(_ delivery: AMQPDelivery, to queue: String) -> ForwardedInput {
        ForwardedInput(exchange: "", routingKey: queue, body: delivery.body, properties: delivery.properties)
    }
}

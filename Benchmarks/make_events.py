#!/usr/bin/env python3
"""Writes N RedGreen notification-response events as fixture lines (JSON Lines) to stdout.

    Benchmarks/make_events.py N [--mix redgreen|every-update] [--notifications K] [--seed S] > events.jsonl

Each line is one delivery to the input exchange in the fixture-line shape (exchange, routingKey, properties, body);
the body is a CloudEvents `notification.response.v1` event, over K notifications of the red and green categories,
interleaved. Two mixes:
- `redgreen` (default, K = 2,000): what RedGreen users do, mostly rotations, some resets, opens and dismissals;
  about one event in four changes a notification's buttons, so yields an update.
- `every-update` (K = 1,000): each notification's taps alternate rotate, reset, rotate, ...; in RedGreen each of
  them changes the buttons, so every event yields an update: the worst case for the broker work per event.
The same arguments always give the same bytes, so every variant of a benchmark drains the same input.

Not `scripts/make-fixtures --events`: that mix holds redeliveries (duplicates of earlier events, for the inbox),
which the stateless reference logic behind the limit's answers file and the peer would count twice, and it has no
`every-update` mix (Benchmarks/README.md, "Why two generators and two publishers").
"""
import argparse
import json
import random
import sys
from datetime import datetime, timedelta, timezone

INPUT_EXCHANGE = "notifications.responses"
START = datetime(2026, 11, 20, 9, 0, 0, tzinfo=timezone.utc)

# (actionIdentifier, weight): rotations dominate, as they do in the sample app.
ACTION_MIX = [
    ("rotate-twenty-degrees-action", 85),
    ("reset-rotation-action", 5),
    ("com.apple.UNNotificationDefaultActionIdentifier", 5),
    ("com.apple.UNNotificationDismissActionIdentifier", 5),
]


def timestamp(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def notifications(count):
    """The notifications the events respond to: alternately red and green, each with its delivery date."""
    result = []
    for number in range(1, count + 1):
        color = "red" if number % 2 else "green"
        result.append({
            "date": timestamp(START + timedelta(seconds=number)),
            "request": {
                "identifier": f"{color}-{number:04d}",
                "content": {
                    "title": color.capitalize(),
                    "body": f"Tap the button to rotate the {color} square.",
                    "categoryIdentifier": f"{color}-category",
                },
                "trigger": {"type": "push"},
            },
        })
    return result


MIXES = {"redgreen": 2000, "every-update": 1000}  # each mix's default number of notifications
ROTATE, RESET = ACTION_MIX[0][0], ACTION_MIX[1][0]


def fixture_lines(count, notification_count, seed, mix="redgreen"):
    rng = random.Random(seed)
    pool = notifications(notification_count)
    actions = [action for action, _ in ACTION_MIX]
    weights = [weight for _, weight in ACTION_MIX]
    taps = {}
    for number in range(1, count + 1):
        notification = rng.choice(pool)
        request = notification["request"]
        if mix == "redgreen":
            action = rng.choices(actions, weights)[0]
        else:
            tapped = taps[request["identifier"]] = taps.get(request["identifier"], 0) + 1
            action = ROTATE if tapped % 2 else RESET
        event_id = f"evt-{number:06d}"
        event = {
            "specversion": "1.0",
            "id": event_id,
            "source": "bench",
            "type": "notification.response.v1",
            "time": timestamp(START + timedelta(seconds=notification_count + number)),
            "subject": request["identifier"],
            "datacontenttype": "application/json",
            "data": {
                "actionIdentifier": action,
                "notification": notification,
            },
        }
        yield {
            "exchange": INPUT_EXCHANGE,
            "routingKey": request["content"]["categoryIdentifier"],
            "properties": {
                "contentType": "application/cloudevents+json",
                "messageId": event_id,
                "deliveryMode": 2,
            },
            "body": event,
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, help="how many events")
    parser.add_argument("--mix", choices=sorted(MIXES), default="redgreen", help="the events' mix (default redgreen)")
    parser.add_argument("--notifications", type=int,
                        help="how many notifications (default 2000 for redgreen, 1000 for every-update)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args()
    out = sys.stdout
    for line in fixture_lines(args.count, args.notifications or MIXES[args.mix], args.seed, args.mix):
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


if __name__ == "__main__":
    main()

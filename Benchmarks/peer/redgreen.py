"""The RedGreen sample's logic, as a Python team would write it: tap counts per notification in a dict."""

ROTATE = "rotate-twenty-degrees-action"
RESET = "reset-rotation-action"
ROTATE_ACTION = {"identifier": ROTATE, "title": "Rotate 20°", "options": []}
RESET_ACTION = {"identifier": RESET, "title": "Reset rotation", "options": []}
UPDATE_TYPE = "notification.actions.updated.v1"


class RedGreen:
    """Counts rotations per notification and decides when its buttons change."""

    def __init__(self):
        self.taps = {}
        self.versions = {}

    def respond(self, event):
        """The action-set update event that answers `event`, or None when the buttons stay as they are."""
        data = event["data"]
        request = data["notification"]["request"]
        identifier = request["identifier"]
        action = data["actionIdentifier"]
        if action in (ROTATE, RESET):
            # Every tap changes the notification's state, so its version, as in responder.
            self.versions[identifier] = self.versions.get(identifier, 0) + 1
        if action == ROTATE:
            taps = self.taps.get(identifier, 0) + 1
            self.taps[identifier] = taps
            if taps % 9 == 0:
                actions = [ROTATE_ACTION]
            elif taps % 9 == 1:
                actions = [ROTATE_ACTION, RESET_ACTION]
            else:
                return None
        elif action == RESET:
            self.taps[identifier] = 0
            actions = [ROTATE_ACTION]
        else:
            return None  # opening or dismissing the notification leaves its buttons alone
        return {
            "specversion": "1.0",
            "id": f"{event['id']}/actions-updated",
            "source": "peer",
            "type": UPDATE_TYPE,
            "time": event["time"],
            "subject": identifier,
            "datacontenttype": "application/json",
            "data": {
                "requestIdentifier": identifier,
                "categoryIdentifier": request["content"]["categoryIdentifier"],
                "causationId": event["id"],
                "responseOption": "doNotDismiss",
                "actions": actions,
                "version": self.versions[identifier],
            },
        }

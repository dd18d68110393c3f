"""pycocoevalcap 1.2's ``meteor`` package: :class:`~.meteor.Meteor`, pycocoevalcap's own."""

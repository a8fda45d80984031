import VAST
import PlayerEngine
import TrackingBeacons
public enum ASPlaceholder {}

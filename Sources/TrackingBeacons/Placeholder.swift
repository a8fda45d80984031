public enum TBPlaceholder {}

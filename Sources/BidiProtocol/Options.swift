import JSONRPC
import UnicodeBidi

/// The option values of the protocol that only the protocol has, each
/// decoded from its wire name once (the directions, `BidiDirection` and
/// `DirectionChoice`, are UnicodeBidi's); the options shared by the four
/// bidi requests (specification, "The four bidi requests"), and the
/// settings that give their defaults ("Settings").

/// What a paragraph is: every line, blocks of lines between blank lines,
/// or the paragraphs a structured document's format defines — values,
/// rendered blocks, cue lines (`document`, the default there; `values` is
/// its synonym; answered as `line` in plain documents).
package enum ParagraphMode: String, Sendable, CaseIterable {
  case line
  case block
  case document

  /// The mode a wire name gives (`values` is `document`).
  package init?(rawValue: String) {
    switch rawValue {
    case "line": self = .line
    case "block": self = .block
    case "document", "values": self = .document
    default: return nil
    }
  }
}

/// The alignment a client asks for in `bidi/alignment`.
package enum TextAlignment: String, Sendable, CaseIterable {
  case natural, leading, trailing, left, right, center, justified
}

/// The defaults of the common options, set by `initializationOptions.bidi`
/// and `workspace/didChangeConfiguration`.
package struct DirectionSettings: Sendable, Equatable {
  package var strategy: DirectionStrategy = .firstStrong
  package var rtlThreshold: Double = 0.4
  package var fallback: DirectionFallback = .previous
  package var paragraphs: ParagraphMode = .line
  package var layoutDirection: BidiDirection = .leftToRight

  package init() {}

  /// The resolver of the settings' strategy and fallback.
  package var policy: DirectionPolicy {
    DirectionPolicy(strategy: strategy, rtlThreshold: rtlThreshold, fallback: fallback, layout: layoutDirection)
  }
}

/// The common options of the four bidi requests, read from a request's
/// params over the server's settings.
package struct DirectionOptions: Sendable, Equatable {
  package var strategy: DirectionStrategy
  package var rtlThreshold: Double
  package var fallback: DirectionFallback
  package var paragraphs: ParagraphMode
  /// Whether the request named `paragraphs` (else structured documents
  /// take `document` whatever the settings say).
  package var paragraphsGiven = false
  package var layoutDirection: BidiDirection

  /// The resolver of the options' strategy and fallback.
  package var policy: DirectionPolicy {
    DirectionPolicy(strategy: strategy, rtlThreshold: rtlThreshold, fallback: fallback, layout: layoutDirection)
  }

  /// The settings themselves, for requests that take no options (hover).
  package init(_ settings: DirectionSettings) {
    strategy = settings.strategy
    rtlThreshold = settings.rtlThreshold
    fallback = settings.fallback
    paragraphs = settings.paragraphs
    layoutDirection = settings.layoutDirection
  }

  package init(_ params: Params, defaults: DirectionSettings) throws(ResponseError) {
    strategy = try params.optional("strategy")?.oneOf(DirectionStrategy.self) ?? defaults.strategy
    rtlThreshold = try params.optional("rtlThreshold").map(threshold) ?? defaults.rtlThreshold
    fallback = try params.optional("fallback")?.oneOf(DirectionFallback.self) ?? defaults.fallback
    let given = try params.optional("paragraphs")?.oneOf(ParagraphMode.self)
    paragraphs = given ?? defaults.paragraphs
    paragraphsGiven = given != nil
    layoutDirection = try params.optional("layoutDirection")?.oneOf(BidiDirection.self) ?? defaults.layoutDirection
  }
}

/// `rtlThreshold`: a number from 0 to 1.
package func threshold(_ value: Params) throws(ResponseError) -> Double {
  let number = try value.number()
  guard number >= 0 && number <= 1 else { throw value.error("must be between 0 and 1, got \(number)") }
  return number
}

/**
 * get-east-asian-width, pinned: the Unicode East Asian Width table. Chosen
 * over string-width, whose first call builds an `Intl.Segmenter` and an
 * `RGI_Emoji` regex (over 100 ms together here), which the picker's first
 * frame cannot afford.
 */
export { eastAsianWidth } from "npm:get-east-asian-width@1.7.0";

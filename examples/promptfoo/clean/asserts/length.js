module.exports.shortEnough = (output) => output.length < 600;
